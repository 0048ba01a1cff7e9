import { describe, expect, it } from 'vitest';
import type { DatumDef, RequirementDef } from '../../src/server/features/accreditation/catalogue.js';
import { applyValues, type Line } from '../../src/server/features/accreditation/lines.js';

const datum: DatumDef = {
  IdDatoEvaluar: 7,
  IdRequisito: 3,
  DatoEvaluar: 'NÚMERO DE PÓLIZA',
  Tipo: 'T',
  ValorDefecto: null,
  Orden: 1,
  DatoOpcional: 'N',
  Aprobar: 'S',
  AdjuntarArchivo: 'N',
  Vencimiento: 'N',
  choices: [],
};
const requirement = {
  IdRequisito: 3,
  Requisito: 'SCTR SALUD',
  TipoRequisito: 'S',
  data: [datum],
} as RequirementDef;
const data = new Map([[7, { datum, requirement }]]);
const carried = (): Line => ({
  IdDetalle: 11,
  IdVisitaPersona: null,
  IdRequisito: 3,
  IdDatoEvaluar: 7,
  TipoRequisito: 'S',
  Valor: 'POL-100',
  Observacion: null,
  EstadoAprobacion: 'A',
  ClaveArchivo: null,
  NombreArchivo: null,
  TipoArchivo: null,
  FechaVencimiento: null,
  IdUsuarioAprobacion: 'SISTEMA',
  FechaAprobacion: '2026-10-01T15:00:00.000Z',
  IdSolicitudOrigen: 42,
});

describe('a value carried over from an accreditation', () => {
  it('stays carried and approved when the requester sends it back unchanged', () => {
    const line = carried();
    expect(applyValues([line], [{ IdDatoEvaluar: 7, Valor: 'POL-100' }], data, () => null)).toEqual({});
    expect(line).toMatchObject({
      IdSolicitudOrigen: 42,
      EstadoAprobacion: 'A',
      IdUsuarioAprobacion: 'SISTEMA',
    });
  });
  it('is the requester’s own, pending evaluation, once replaced', () => {
    const line = carried();
    expect(applyValues([line], [{ IdDatoEvaluar: 7, Valor: 'POL-200' }], data, () => null)).toEqual({});
    expect(line).toMatchObject({
      Valor: 'POL-200',
      IdSolicitudOrigen: null,
      EstadoAprobacion: 'P',
      IdUsuarioAprobacion: null,
      FechaAprobacion: null,
    });
  });
});
