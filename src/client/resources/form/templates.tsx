import { Box, Typography } from '@mui/material';
import { Templates } from '@rjsf/mui';
import type { BaseInputTemplateProps, ObjectFieldTemplateProps } from '@rjsf/utils';

const MuiBaseInput = Templates.BaseInputTemplate as NonNullable<typeof Templates.BaseInputTemplate>;

/** Text inputs upper-case as the user types where the schema says x-upper (spec section 5). */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  if (!props.options.upper) return <MuiBaseInput {...props} />;
  const onChange = (value: unknown) =>
    props.onChange(typeof value === 'string' ? value.toLocaleUpperCase('es') : value);
  return <MuiBaseInput {...props} onChange={onChange} />;
}

type Layout = { wide?: boolean; double?: boolean };

/** Long texts take a whole row; a secret and its confirmation two columns (one on a phone). */
function column(layout: Layout | undefined) {
  if (layout?.wide) return '1 / -1';
  if (layout?.double) return { xs: 'auto', sm: 'span 2' };
  return 'auto';
}

const grid = {
  display: 'grid',
  gridTemplateColumns: {
    xs: 'minmax(0, 1fr)',
    sm: 'repeat(2, minmax(0, 1fr))',
    lg: 'repeat(3, minmax(0, 1fr))',
  },
  columnGap: 2,
  rowGap: 0.5,
  mb: 2,
} as const;

interface Section {
  name: string;
  title: string;
  fields: string[];
}

/**
 * Fields on a responsive grid: three columns on wide screens; long texts take a whole row. A
 * schema's sections (x-sections) each get their title and grid, in order; fields in none (the
 * key, the tenancy) come first.
 */
export function ObjectFieldTemplate({ properties, uiSchema }: ObjectFieldTemplateProps) {
  const cell = (element: ObjectFieldTemplateProps['properties'][number]) =>
    element.hidden ? (
      element.content
    ) : (
      <Box
        key={element.name}
        sx={{ gridColumn: column(uiSchema?.[element.name]?.['ui:options'] as Layout | undefined) }}
      >
        {element.content}
      </Box>
    );
  const sections = (
    (uiSchema?.['ui:options'] as { sections?: Section[] } | undefined)?.sections ?? []
  ).filter((section) => section.fields.length);
  if (!sections.length) return <Box sx={grid}>{properties.map(cell)}</Box>;
  const byName = new Map(properties.map((element) => [element.name, element]));
  const placed = new Set(sections.flatMap((section) => section.fields));
  const rest = properties.filter((element) => !placed.has(element.name));
  return (
    <>
      {rest.length > 0 && <Box sx={grid}>{rest.map(cell)}</Box>}
      {sections.map((section) => (
        <Box
          component="section"
          key={section.name}
          aria-labelledby={`section-${section.name}`}
          className={`form-section form-section-${section.name}`}
          sx={{ mb: 1 }}
        >
          <Typography
            id={`section-${section.name}`}
            variant="h6"
            component="h2"
            sx={{ fontSize: '1.05rem', borderBottom: 1, borderColor: 'divider', pb: 0.5, mb: 1.5 }}
          >
            {section.title}
          </Typography>
          <Box sx={grid}>
            {section.fields
              .map((field) => byName.get(field))
              .filter((element) => element !== undefined)
              .map(cell)}
          </Box>
        </Box>
      ))}
    </>
  );
}
