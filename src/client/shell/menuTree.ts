import type { MenuItem } from '../session/store.js';

export interface MenuNode extends MenuItem {
  children: MenuNode[];
}

/**
 * The side menu's tree from the flat menu list (spec section 2): roots have no parent, children
 * come in their order, at most three levels deep (ids of two-digit pairs).
 */
export function menuTree(items: MenuItem[]): MenuNode[] {
  const nodes = new Map<string, MenuNode>(items.map((item) => [item.IdMenu, { ...item, children: [] }]));
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.IdMenuPadre ? nodes.get(node.IdMenuPadre) : undefined;
    if (parent && node.IdMenu.length <= 6) parent.children.push(node);
    else if (!node.IdMenuPadre) roots.push(node);
  }
  const sort = (list: MenuNode[]) => {
    list.sort((a, b) => a.Orden - b.Orden || a.IdMenu.localeCompare(b.IdMenu));
    for (const node of list) sort(node.children);
    return list;
  };
  return sort(roots);
}

/** The items from the root down to the one whose route opens this path, for the breadcrumb. */
export function menuPath(items: MenuItem[], pathname: string): MenuItem[] {
  const first = `/${pathname.split('/').filter(Boolean)[0] ?? ''}`;
  const leaf =
    items.find((item) => item.Ruta === pathname) ??
    items
      .filter((item) => item.Ruta && (pathname === item.Ruta || pathname.startsWith(`${item.Ruta}/`)))
      .sort((a, b) => (b.Ruta?.length ?? 0) - (a.Ruta?.length ?? 0))[0] ??
    items.find((item) => item.Ruta === first);
  if (!leaf) return [];
  const byId = new Map(items.map((item) => [item.IdMenu, item]));
  const path: MenuItem[] = [];
  for (
    let node: MenuItem | undefined = leaf;
    node;
    node = node.IdMenuPadre ? byId.get(node.IdMenuPadre) : undefined
  ) {
    path.unshift(node);
  }
  return path;
}

/** A menu tag in words: resource names take their plural, other tags are keys as they are. */
export function tagText(translate: (key: string, options?: object) => string, tag: string): string {
  return translate(tag, /^resources\.[^.]+\.name$/.test(tag) ? { smart_count: 2 } : {});
}
