import AccessTimeIcon from '@mui/icons-material/AccessTime';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import AssessmentIcon from '@mui/icons-material/Assessment';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import BadgeIcon from '@mui/icons-material/Badge';
import BedIcon from '@mui/icons-material/Bed';
import BusinessIcon from '@mui/icons-material/Business';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import CampaignIcon from '@mui/icons-material/Campaign';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DepartureBoardIcon from '@mui/icons-material/DepartureBoard';
import DirectionsBusIcon from '@mui/icons-material/DirectionsBus';
import DirectionsCarIcon from '@mui/icons-material/DirectionsCar';
import EngineeringIcon from '@mui/icons-material/Engineering';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import EventNoteIcon from '@mui/icons-material/EventNote';
import EventSeatIcon from '@mui/icons-material/EventSeat';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import GppBadIcon from '@mui/icons-material/GppBad';
import GridOnIcon from '@mui/icons-material/GridOn';
import GroupsIcon from '@mui/icons-material/Groups';
import HotelIcon from '@mui/icons-material/Hotel';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import InsightsIcon from '@mui/icons-material/Insights';
import LabelOutlinedIcon from '@mui/icons-material/LabelOutlined';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LockClockIcon from '@mui/icons-material/LockClock';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import MeetingRoomIcon from '@mui/icons-material/MeetingRoom';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import PlaceIcon from '@mui/icons-material/Place';
import RestaurantIcon from '@mui/icons-material/Restaurant';
import SchoolIcon from '@mui/icons-material/School';
import SettingsIcon from '@mui/icons-material/Settings';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import WebhookIcon from '@mui/icons-material/Webhook';
import type { ComponentType } from 'react';

/** The icons a menu item may name in its Icono field; anything else shows a label. */
export const MENU_ICONS: Record<string, ComponentType<{ fontSize?: 'small' | 'medium' }>> = {
  AccessTime: AccessTimeIcon,
  Assessment: AssessmentIcon,
  Bed: BedIcon,
  EventAvailable: EventAvailableIcon,
  Groups: GroupsIcon,
  CalendarMonth: CalendarMonthIcon,
  GridOn: GridOnIcon,
  LockClock: LockClockIcon,
  AdminPanelSettings: AdminPanelSettingsIcon,
  Autorenew: AutorenewIcon,
  Badge: BadgeIcon,
  Business: BusinessIcon,
  Campaign: CampaignIcon,
  Dashboard: DashboardIcon,
  AccountTree: AccountTreeIcon,
  DepartureBoard: DepartureBoardIcon,
  DirectionsBus: DirectionsBusIcon,
  DirectionsCar: DirectionsCarIcon,
  EventSeat: EventSeatIcon,
  Engineering: EngineeringIcon,
  FactCheck: FactCheckIcon,
  ManageSearch: ManageSearchIcon,
  EventNote: EventNoteIcon,
  Folder: FolderOutlinedIcon,
  GppBad: GppBadIcon,
  HowToReg: HowToRegIcon,
  Insights: InsightsIcon,
  ListAlt: ListAltIcon,
  PersonRemove: PersonRemoveIcon,
  Place: PlaceIcon,
  Hotel: HotelIcon,
  Label: LabelOutlinedIcon,
  MeetingRoom: MeetingRoomIcon,
  Restaurant: RestaurantIcon,
  School: SchoolIcon,
  Settings: SettingsIcon,
  VerifiedUser: VerifiedUserIcon,
  Webhook: WebhookIcon,
};

export function MenuIcon({ name, small }: { name: string | null; small?: boolean }) {
  const Icon = (name && MENU_ICONS[name]) || LabelOutlinedIcon;
  return <Icon fontSize={small ? 'small' : 'medium'} />;
}
