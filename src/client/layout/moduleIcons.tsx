import AccessTimeIcon from '@mui/icons-material/AccessTime';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import BadgeIcon from '@mui/icons-material/Badge';
import BusinessIcon from '@mui/icons-material/Business';
import DirectionsBusIcon from '@mui/icons-material/DirectionsBus';
import HotelIcon from '@mui/icons-material/Hotel';
import MeetingRoomIcon from '@mui/icons-material/MeetingRoom';
import RestaurantIcon from '@mui/icons-material/Restaurant';
import SchoolIcon from '@mui/icons-material/School';
import SettingsIcon from '@mui/icons-material/Settings';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import type { ComponentType } from 'react';
import type { ModuleKey } from '../../shared/modules.js';

export const MODULE_ICONS: Record<ModuleKey, ComponentType> = {
  system: SettingsIcon,
  security: AdminPanelSettingsIcon,
  administration: BusinessIcon,
  access: MeetingRoomIcon,
  attendance: AccessTimeIcon,
  identification: BadgeIcon,
  dining: RestaurantIcon,
  hotel: HotelIcon,
  accreditation: VerifiedUserIcon,
  induction: SchoolIcon,
  transport: DirectionsBusIcon,
};
