import BadgeIcon from '@mui/icons-material/Badge';
import BusinessIcon from '@mui/icons-material/Business';
import DirectionsCarIcon from '@mui/icons-material/DirectionsCar';
import EngineeringIcon from '@mui/icons-material/Engineering';
import type { EntityCode } from '../../../../shared/accreditation.js';

export const ENTITY_ICONS: Record<EntityCode, typeof EngineeringIcon> = {
  T: EngineeringIcon,
  V: DirectionsCarIcon,
  P: BadgeIcon,
  E: BusinessIcon,
};
