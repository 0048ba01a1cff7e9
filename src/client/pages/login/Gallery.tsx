import { Box, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { GALLERY } from '../../../shared/constants.js';
import { useT } from '../../i18n/translate.js';

/** Four scenes of a mine, drawn here so the login page needs nothing from another host. */
const SCENES = [
  { sky: ['#0d3b66', '#f4a261'], ground: '#6b4f3a', accent: '#e76f51' },
  { sky: ['#1d3557', '#a8dadc'], ground: '#7f5539', accent: '#ffb703' },
  { sky: ['#03045e', '#0077b6'], ground: '#3d405b', accent: '#ffd166' },
  { sky: ['#264653', '#e9c46a'], ground: '#8d6346', accent: '#2a9d8f' },
];

function Scene({ index }: { index: number }) {
  const s = SCENES[index];
  return (
    <svg
      viewBox="0 0 400 300"
      width="100%"
      height="100%"
      preserveAspectRatio="xMidYMid slice"
      role="img"
      aria-hidden="true"
    >
      <defs>
        <linearGradient id={`sky${index}`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={s.sky[0]} />
          <stop offset="1" stopColor={s.sky[1]} />
        </linearGradient>
      </defs>
      <rect width="400" height="300" fill={`url(#sky${index})`} />
      <circle cx={80 + index * 70} cy={70 + (index % 2) * 20} r="22" fill="#fff3b0" opacity="0.85" />
      <path
        d="M0 190 L70 110 L130 170 L210 80 L290 160 L340 120 L400 170 L400 300 L0 300 Z"
        fill="#2b2d42"
        opacity="0.55"
      />
      <path d="M0 230 L60 200 L140 215 L230 185 L320 210 L400 195 L400 300 L0 300 Z" fill={s.ground} />
      {index === 0 && (
        <g fill="none" stroke="#d4a373" strokeWidth="6">
          <ellipse cx="200" cy="255" rx="150" ry="28" />
          <ellipse cx="200" cy="258" rx="110" ry="18" />
          <ellipse cx="200" cy="260" rx="70" ry="10" />
        </g>
      )}
      {index === 1 && (
        <g>
          <rect x="150" y="222" width="90" height="30" rx="4" fill={s.accent} />
          <rect x="232" y="230" width="34" height="22" rx="3" fill={s.accent} />
          <circle cx="170" cy="256" r="11" fill="#222" />
          <circle cx="222" cy="256" r="11" fill="#222" />
          <circle cx="255" cy="256" r="9" fill="#222" />
        </g>
      )}
      {index === 2 && (
        <g fill={s.accent}>
          {[60, 120, 180, 240, 300].map((x) => (
            <rect key={x} x={x} y="232" width="44" height="24" rx="2" opacity="0.9" />
          ))}
        </g>
      )}
      {index === 3 && (
        <g>
          <rect x="170" y="200" width="16" height="60" fill="#ddd" />
          <rect x="186" y="222" width="150" height="8" fill={s.accent} />
          <rect x="120" y="215" width="44" height="45" fill="#f1faee" />
        </g>
      )}
    </svg>
  );
}

/** The login page's gallery: four images, one every five seconds (spec sections 2 and 9). */
export default function Gallery() {
  const translate = useT();
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => (i + 1) % GALLERY.images), GALLERY.intervalMs);
    return () => clearInterval(timer);
  }, []);
  return (
    <Box
      sx={{ position: 'relative', flex: 1, minHeight: 240, overflow: 'hidden', borderRadius: 2 }}
      data-gallery={index}
    >
      <Scene index={index} />
      <Typography
        sx={{
          position: 'absolute',
          left: 16,
          bottom: 12,
          color: '#fff',
          textShadow: '0 1px 3px rgba(0,0,0,.6)',
        }}
        variant="subtitle1"
      >
        {translate(`login.gallery.${index + 1}`)}
      </Typography>
    </Box>
  );
}
