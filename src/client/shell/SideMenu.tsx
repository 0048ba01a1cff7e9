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
import { memo, type ReactElement, useCallback, useId, useMemo, useRef, useState } from 'react';
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

/** What every entry of the menu reads, given once from the menu itself. */
interface Shell {
  sidebarOpen: boolean;
  /** Folds the menu after a choice on a small screen. */
  chosen: () => void;
}

/**
 * A menu entry's words, cut to one line; the whole text shows in a tooltip when it does not fit
 * (or when the menu is folded to its icons).
 */
function Entry({
  text,
  icon,
  trailing,
  sidebarOpen,
  children,
}: {
  text: string;
  icon: ReactElement;
  trailing?: ReactElement;
  sidebarOpen: boolean;
  children: (content: ReactElement, tooltip: (button: ReactElement) => ReactElement) => ReactElement;
}) {
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

/**
 * A screen's link or a group and its entries. Memoised: moving to another screen redraws only the
 * entries whose state changed (the one left, the one reached, the groups opened), not the whole
 * menu, whose hundred entries would otherwise be drawn again at every step.
 */
const Group = memo(function Group({
  node,
  depth,
  openIds,
  activeIds,
  toggle,
  shell,
}: {
  node: MenuNode;
  depth: number;
  /** The open groups' ids, joined by spaces, for a group (a link needs none). */
  openIds: string;
  /** The ids from the root to the current screen, joined by spaces. */
  activeIds: string;
  toggle: (id: string) => void;
  shell: Shell;
}) {
  const translate = useTranslate();
  const childrenId = useId();
  const text = tagText(translate, node.Tag);
  const indent = shell.sidebarOpen ? 2 + depth * 2 : 2;
  const icon = <MenuIcon name={node.Icono} small={depth > 0} />;
  if (!node.children.length) {
    if (!node.Ruta) return null;
    const current = activeIds.split(' ').pop() === node.IdMenu;
    return (
      <ListItem disablePadding>
        <Entry text={text} icon={icon} sidebarOpen={shell.sidebarOpen}>
          {(content, tooltip) =>
            tooltip(
              <ListItemButton
                component={Link}
                to={node.Ruta as string}
                selected={current}
                aria-current={current ? 'page' : undefined}
                onClick={shell.chosen}
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
  const expanded = openIds.split(' ').includes(node.IdMenu);
  /** What an entry under this group is told: a link only whether it is the current screen. */
  const forChild = (child: MenuNode) => {
    const inside = activeIds.split(' ').includes(child.IdMenu);
    return {
      openIds: child.children.length ? openIds : '',
      activeIds: inside ? activeIds : '',
    };
  };
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <Entry
        text={text}
        icon={icon}
        sidebarOpen={shell.sidebarOpen}
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
      {/*
        Clipped, never scrolled: while a group opens inside a group that is still opening, the
        outer one's height lags behind its content, and a hidden overflow would be scrolled to
        show a focused or pointed entry, then jump back when the opening ends, moving the entry
        under the pointer between press and release (the click then lands on its neighbour).
      */}
      <Collapse in={expanded} timeout={200} unmountOnExit sx={{ overflow: 'clip' }}>
        <List disablePadding id={childrenId} aria-label={text}>
          {node.children.map((child) => (
            <Group
              key={child.IdMenu}
              node={child}
              depth={depth + 1}
              {...forChild(child)}
              toggle={toggle}
              shell={shell}
            />
          ))}
        </List>
      </Collapse>
    </ListItem>
  );
});

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
  // The session is read afresh at every step: the tree is made again only when the menu changed.
  const menuKey = JSON.stringify(items);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the items
  const tree = useMemo(() => menuTree(items), [menuKey]);
  const location = useLocation();
  const activePath = menuPath(items, location.pathname).map((m) => m.IdMenu);
  const [stored, setOpen] = useStore<string[]>('menu.open', []);
  const open = [...new Set([...stored, ...activePath])];
  const openNow = useRef(open);
  openNow.current = open;
  const toggle = useCallback(
    (id: string) => {
      const now = openNow.current;
      setOpen(now.includes(id) ? now.filter((o) => o !== id) : [...now, id]);
    },
    [setOpen],
  );
  const chosen = useCallback(() => {
    if (isSmall) setSidebarOpen(false);
  }, [isSmall, setSidebarOpen]);
  const shell = useMemo<Shell>(() => ({ sidebarOpen, chosen }), [sidebarOpen, chosen]);
  const heading = translate(HEADINGS[profile?.current.tipoPerfil ?? 'none']);
  const home = location.pathname.startsWith('/dashboard');
  const openIds = open.join(' ');
  const activeIds = activePath.join(' ');
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
          <Entry
            text={translate('app.menu.home')}
            icon={<MenuIcon name="Dashboard" />}
            sidebarOpen={sidebarOpen}
          >
            {(content, tooltip) =>
              tooltip(
                <ListItemButton
                  component={Link}
                  to="/dashboard"
                  selected={home}
                  aria-current={home ? 'page' : undefined}
                  onClick={chosen}
                  sx={{ pl: 2 }}
                >
                  {content}
                </ListItemButton>,
              )
            }
          </Entry>
        </ListItem>
        {tree.map((node) => (
          <Group
            key={node.IdMenu}
            node={node}
            depth={0}
            openIds={node.children.length ? openIds : ''}
            activeIds={activePath.includes(node.IdMenu) ? activeIds : ''}
            toggle={toggle}
            shell={shell}
          />
        ))}
      </List>
    </Box>
  );
}
