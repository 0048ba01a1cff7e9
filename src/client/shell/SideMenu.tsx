import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  Box,
  Collapse,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  type Theme,
  Tooltip,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { type ReactElement, useId, useRef, useState } from 'react';
import { useSidebarState, useStore, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { session } from '../session/store.js';
import { MenuIcon } from './icons.js';
import { type MenuNode, menuPath, menuTree, tagText } from './menuTree.js';

const HEADINGS = {
  administrator: 'app.menu.heading.administrator',
  authoriser: 'app.menu.heading.authoriser',
  requester: 'app.menu.heading.requester',
  none: 'app.menu.heading.requester',
} as const;

const OPEN_WIDTH = 240;
const CLOSED_WIDTH = 55;

/**
 * A menu entry's words, cut to one line; the whole text shows in a tooltip when it does not fit
 * (or when the menu is folded to its icons).
 */
function Entry({
  text,
  icon,
  trailing,
  children,
}: {
  text: string;
  icon: ReactElement;
  trailing?: ReactElement;
  children: (content: ReactElement, tooltip: (button: ReactElement) => ReactElement) => ReactElement;
}) {
  const [sidebarOpen] = useSidebarState();
  const label = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  const content = (
    <>
      <ListItemIcon sx={{ minWidth: 40 }}>{icon}</ListItemIcon>
      <Typography ref={label} variant="body2" noWrap sx={{ flex: 1, fontSize: '0.95rem' }}>
        {text}
      </Typography>
      {trailing}
    </>
  );
  const tooltip = (button: ReactElement) => (
    <Tooltip
      title={text}
      placement="right"
      open={open}
      onOpen={() => {
        const el = label.current;
        setOpen(!sidebarOpen || Boolean(el && el.scrollWidth > el.clientWidth));
      }}
      onClose={() => setOpen(false)}
      describeChild
    >
      {button}
    </Tooltip>
  );
  return children(content, tooltip);
}

function Group({
  node,
  depth,
  open,
  toggle,
  active,
}: {
  node: MenuNode;
  depth: number;
  open: string[];
  toggle: (id: string) => void;
  active: string[];
}) {
  const translate = useTranslate();
  const [sidebarOpen, setSidebarOpen] = useSidebarState();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const childrenId = useId();
  const text = tagText(translate, node.Tag);
  const indent = sidebarOpen ? 2 + depth * 2 : 2;
  const icon = <MenuIcon name={node.Icono} small={depth > 0} />;
  if (!node.children.length) {
    if (!node.Ruta) return null;
    const current = active[active.length - 1] === node.IdMenu;
    return (
      <ListItem disablePadding>
        <Entry text={text} icon={icon}>
          {(content, tooltip) =>
            tooltip(
              <ListItemButton
                component={Link}
                to={node.Ruta as string}
                selected={current}
                aria-current={current ? 'page' : undefined}
                onClick={() => isSmall && setSidebarOpen(false)}
                sx={{ pl: indent }}
                data-menu={node.IdMenu}
              >
                {content}
              </ListItemButton>,
            )
          }
        </Entry>
      </ListItem>
    );
  }
  const expanded = open.includes(node.IdMenu);
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <Entry
        text={text}
        icon={icon}
        trailing={expanded ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      >
        {(content, tooltip) =>
          tooltip(
            <ListItemButton
              onClick={() => toggle(node.IdMenu)}
              aria-expanded={expanded}
              aria-controls={childrenId}
              sx={{ pl: indent, color: node.Color ?? undefined }}
              data-menu={node.IdMenu}
            >
              {content}
            </ListItemButton>,
          )
        }
      </Entry>
      <Collapse in={expanded} timeout={200} unmountOnExit>
        <List disablePadding id={childrenId} aria-label={text}>
          {node.children.map((child) => (
            <Group
              key={child.IdMenu}
              node={child}
              depth={depth + 1}
              open={open}
              toggle={toggle}
              active={active}
            />
          ))}
        </List>
      </Collapse>
    </ListItem>
  );
}

/**
 * The side menu of spec section 2, built from the profile's menu list: a fixed Home first, then
 * the groups and screens in their order, up to three levels; open groups are remembered, and the
 * heading names the profile's kind of work. A navigation landmark of nested lists: groups are
 * buttons that open their list, screens are links.
 */
export default function SideMenu() {
  const translate = useTranslate();
  const [sidebarOpen, setSidebarOpen] = useSidebarState();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const profile = session.profile();
  const items = profile?.menu ?? [];
  const location = useLocation();
  const activePath = menuPath(items, location.pathname).map((m) => m.IdMenu);
  const [stored, setOpen] = useStore<string[]>('menu.open', []);
  const open = [...new Set([...stored, ...activePath])];
  const toggle = (id: string) => setOpen(open.includes(id) ? open.filter((o) => o !== id) : [...open, id]);
  const heading = translate(HEADINGS[profile?.current.tipoPerfil ?? 'none']);
  const home = location.pathname.startsWith('/dashboard');
  return (
    <Box
      component="nav"
      aria-label={heading}
      className="side-menu"
      sx={{
        width: sidebarOpen ? OPEN_WIDTH : CLOSED_WIDTH,
        transition: (theme) => theme.transitions.create('width'),
        overflowX: 'hidden',
        mt: 0.5,
      }}
    >
      {sidebarOpen && (
        <Typography variant="caption" component="p" color="text.secondary" sx={{ px: 2, py: 1 }}>
          {heading}
        </Typography>
      )}
      <List disablePadding>
        <ListItem disablePadding>
          <Entry text={translate('app.menu.home')} icon={<MenuIcon name="Dashboard" />}>
            {(content, tooltip) =>
              tooltip(
                <ListItemButton
                  component={Link}
                  to="/dashboard"
                  selected={home}
                  aria-current={home ? 'page' : undefined}
                  onClick={() => isSmall && setSidebarOpen(false)}
                  sx={{ pl: 2 }}
                >
                  {content}
                </ListItemButton>,
              )
            }
          </Entry>
        </ListItem>
        {menuTree(items).map((node) => (
          <Group key={node.IdMenu} node={node} depth={0} open={open} toggle={toggle} active={activePath} />
        ))}
      </List>
    </Box>
  );
}
