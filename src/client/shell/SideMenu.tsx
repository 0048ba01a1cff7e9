import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { Collapse, List, ListItemButton, ListItemIcon, ListItemText, ListSubheader } from '@mui/material';
import { Menu, useSidebarState, useStore, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { session } from '../session/store.js';
import { MenuIcon } from './icons.js';
import { type MenuNode, menuPath, menuTree, tagText } from './menuTree.js';

const HEADINGS = {
  administrator: 'app.menu.heading.administrator',
  authoriser: 'app.menu.heading.authoriser',
  requester: 'app.menu.heading.requester',
  none: 'app.menu.heading.requester',
} as const;

function Group({
  node,
  depth,
  open,
  toggle,
}: {
  node: MenuNode;
  depth: number;
  open: string[];
  toggle: (id: string) => void;
}) {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const indent = sidebarOpen ? 2 + depth * 2 : 2;
  if (!node.children.length) {
    if (!node.Ruta) return null;
    return (
      <Menu.Item
        to={node.Ruta}
        primaryText={tagText(translate, node.Tag)}
        leftIcon={<MenuIcon name={node.Icono} small={depth > 0} />}
        sx={{ pl: indent }}
        data-menu={node.IdMenu}
      />
    );
  }
  const expanded = open.includes(node.IdMenu);
  return (
    <List disablePadding component="nav" aria-label={tagText(translate, node.Tag)}>
      <ListItemButton onClick={() => toggle(node.IdMenu)} dense sx={{ pl: indent }} data-menu={node.IdMenu}>
        <ListItemIcon sx={{ minWidth: 40, color: node.Color ?? undefined }}>
          <MenuIcon name={node.Icono} small={depth > 0} />
        </ListItemIcon>
        <ListItemText primary={tagText(translate, node.Tag)} />
        {expanded ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={expanded} timeout={200} unmountOnExit>
        {node.children.map((child) => (
          <Group key={child.IdMenu} node={child} depth={depth + 1} open={open} toggle={toggle} />
        ))}
      </Collapse>
    </List>
  );
}

/**
 * The side menu of spec section 2, built from the profile's menu list: a fixed Home first, then
 * the groups and screens in their order, up to three levels; open groups are remembered, and the
 * heading names the profile's kind of work.
 */
export default function SideMenu() {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const profile = session.profile();
  const items = profile?.menu ?? [];
  const location = useLocation();
  const activePath = menuPath(items, location.pathname).map((m) => m.IdMenu);
  const [stored, setOpen] = useStore<string[]>('menu.open', []);
  const open = [...new Set([...stored, ...activePath])];
  const toggle = (id: string) => setOpen(open.includes(id) ? open.filter((o) => o !== id) : [...open, id]);
  const heading = HEADINGS[profile?.current.tipoPerfil ?? 'none'];
  return (
    <Menu>
      {sidebarOpen && (
        <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: 2.5 }}>{translate(heading)}</ListSubheader>
      )}
      <Menu.Item
        to="/dashboard"
        primaryText={translate('app.menu.home')}
        leftIcon={<MenuIcon name="Dashboard" />}
      />
      {menuTree(items).map((node) => (
        <Group key={node.IdMenu} node={node} depth={0} open={open} toggle={toggle} />
      ))}
    </Menu>
  );
}
