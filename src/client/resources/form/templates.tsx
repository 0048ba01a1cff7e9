import { Box } from '@mui/material';
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

/** Fields on a responsive grid: three columns on wide screens; long texts take a whole row. */
export function ObjectFieldTemplate({ properties, uiSchema }: ObjectFieldTemplateProps) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
        columnGap: 2,
        rowGap: 0.5,
        mb: 2,
      }}
    >
      {properties.map((element) =>
        element.hidden ? (
          element.content
        ) : (
          <Box
            key={element.name}
            sx={{
              gridColumn: column(uiSchema?.[element.name]?.['ui:options'] as Layout | undefined),
            }}
          >
            {element.content}
          </Box>
        ),
      )}
    </Box>
  );
}
