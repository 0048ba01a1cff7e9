import { TablePagination, type TablePaginationProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * The pager of every grid: its labels in the user's language, and on a phone its parts wrap onto
 * a second line instead of pushing the next-page button off the screen.
 */
export function Pager(props: Omit<TablePaginationProps, 'component'>) {
  const translate = useTranslate();
  return (
    <TablePagination
      component="div"
      labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
      labelDisplayedRows={({ from, to, count }) =>
        translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })
      }
      getItemAriaLabel={(type) => translate(`ra.navigation.${type === 'previous' ? 'previous' : type}`)}
      {...props}
      sx={{
        '& .MuiTablePagination-toolbar': {
          flexWrap: 'wrap',
          justifyContent: 'flex-end',
          rowGap: 0.5,
          px: { xs: 0, sm: 2 },
        },
        '& .MuiTablePagination-spacer': { display: { xs: 'none', sm: 'block' } },
        '& .MuiTablePagination-input': { mr: { xs: 1, sm: 4 } },
        '& .MuiTablePagination-actions': { ml: { xs: 1, sm: 2.5 } },
        ...props.sx,
      }}
    />
  );
}
