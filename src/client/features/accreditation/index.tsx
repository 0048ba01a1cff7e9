import { lazy } from 'react';
import type { ClientFeature } from '../types.js';
import { Approves } from './Approves.js';

// Each screen loads on first visit.
const RequestsScreen = lazy(() => import('./RequestsScreen.js'));
const RequestPage = lazy(() => import('./request/RequestPage.js'));
const EvaluationPage = lazy(() => import('./evaluation/EvaluationPage.js'));
const RequesterDashboard = lazy(() => import('./dashboard/RequesterDashboard.js'));
const AuthoriserDashboard = lazy(() => import('./dashboard/AuthoriserDashboard.js'));
const DemobilisationScreen = lazy(() => import('./after/DemobilisationScreen.js'));
const RenewalScreen = lazy(() => import('./after/RenewalScreen.js'));
const ContractScreen = lazy(() => import('./after/ContractScreen.js'));
const BulkScreen = lazy(() => import('./bulk/BulkScreen.js'));
const QueryScreen = lazy(() => import('./queries/QueryScreen.js'));
const EfficiencyScreen = lazy(() => import('./reports/EfficiencyScreen.js'));

const RequesterRequests = () => <RequestsScreen side="solicitante" />;
const AuthoriserRequests = () => (
  <Approves>
    <RequestsScreen side="autorizador" />
  </Approves>
);
const RequesterDemobilisation = () => <DemobilisationScreen side="solicitante" />;
const AuthoriserDemobilisation = () => (
  <Approves>
    <DemobilisationScreen side="autorizador" />
  </Approves>
);
const RequesterRenewal = () => <RenewalScreen side="solicitante" />;
const AuthoriserRenewal = () => (
  <Approves>
    <RenewalScreen side="autorizador" />
  </Approves>
);
const MobilisationQuery = () => <QueryScreen mode="M" />;
const DemobilisationQuery = () => <QueryScreen mode="D" />;
const StatusQuery = () => <QueryScreen mode="status" />;
const RequesterContracts = () => <ContractScreen side="solicitante" />;
const AuthoriserContracts = () => (
  <Approves>
    <ContractScreen side="autorizador" />
  </Approves>
);

/** Accreditation: the requester's and the authoriser's screens of spec section 2 and their dashboards. */
export const accreditation: ClientFeature = {
  name: 'accreditation',
  routes: [
    { path: '/movilizacion/solicitante/masiva', Component: BulkScreen },
    { path: '/movilizacion/solicitante/:kind', Component: RequesterRequests },
    { path: '/movilizacion/solicitante/:kind/:id', Component: RequestPage },
    { path: '/movilizacion/autorizador/:kind', Component: AuthoriserRequests },
    { path: '/movilizacion/autorizador/:kind/:id', Component: EvaluationPage },
    { path: '/desmovilizacion/solicitante/:kind', Component: RequesterDemobilisation },
    { path: '/desmovilizacion/autorizador/:kind', Component: AuthoriserDemobilisation },
    { path: '/requisito/solicitante/:kind', Component: RequesterRenewal },
    { path: '/requisito/solicitante/:kind/:id', Component: RequestPage },
    { path: '/requisito/autorizador/:kind', Component: AuthoriserRenewal },
    { path: '/requisito/autorizador/:kind/:id', Component: EvaluationPage },
    { path: '/contrato/solicitante/:kind', Component: RequesterContracts },
    { path: '/contrato/autorizador/:kind', Component: AuthoriserContracts },
    { path: '/consultas/movilizaciones', Component: MobilisationQuery },
    { path: '/consultas/desmovilizaciones', Component: DemobilisationQuery },
    { path: '/consultas/estado', Component: StatusQuery },
    { path: '/reporte/eficiencia', Component: EfficiencyScreen },
  ],
  dashboards: { requester: RequesterDashboard, authoriser: AuthoriserDashboard },
};
