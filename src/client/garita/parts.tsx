import { type ReactNode, useState } from 'react';
import type { Direction } from '../../shared/access/decision.js';
import Scanner from '../components/Scanner.js';
import type { Translate } from '../i18n/translate.js';
import type { MealAnswer, ReaderRoom } from './dining.js';
import type { AllowList, GateAnswer } from './offline.js';
import type { Language } from './texts.js';

/** A gate's answer as the guard sees it: with the direction, the door and the time. */
export interface Shown extends GateAnswer {
  direction: Direction;
  door: string;
  at: Date;
}

/** A dining reader's answer as the cashier sees it: with the room and the time. */
export interface MealShown extends MealAnswer {
  room: string;
  at: Date;
}

/** The enrolment code an enrolment QR (an address with ?enrolar=) or a typed code holds. */
export const enrolmentCodeOf = (text: string): string | undefined => {
  const value = text.trim();
  try {
    const code = new URL(value).searchParams.get('enrolar');
    if (code) return code;
  } catch {
    // not an address: the code itself
  }
  return /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : undefined;
};

/** A device not enrolled yet: the enrolment QR read by the camera, or its code typed. */
export function EnrolScreen({
  t,
  languageButton,
  message,
  cameraFailed,
  onCode,
  onCameraError,
}: {
  t: Translate;
  languageButton: ReactNode;
  message: string;
  cameraFailed: boolean;
  onCode: (code: string) => void;
  onCameraError: () => void;
}) {
  const [typed, setTyped] = useState('');
  return (
    <main className="gate">
      <header className="bar">
        <h1>{t('gateApp.title')}</h1>
        {languageButton}
      </header>
      <section className="panel">
        <h2>{t('gateApp.enrolTitle')}</h2>
        <p>{t('gateApp.enrolHelp')}</p>
        <Scanner
          label={t('gateApp.camera')}
          onRead={(text) => {
            const code = enrolmentCodeOf(text);
            if (code) onCode(code);
          }}
          onError={onCameraError}
        />
        <form
          className="typed"
          onSubmit={(event) => {
            event.preventDefault();
            const code = enrolmentCodeOf(typed);
            if (code) onCode(code);
            setTyped('');
          }}
        >
          <label htmlFor="enrol-code">{t('gateApp.enrolCode')}</label>
          <div className="row">
            <input
              id="enrol-code"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
            />
            <button type="submit">{t('gateApp.enrolButton')}</button>
          </div>
        </form>
        {message && (
          <p className="notice" role="status">
            {message}
          </p>
        )}
        {cameraFailed && <p className="notice">{t('gateApp.cameraFailed')}</p>}
      </section>
    </main>
  );
}

const timeOf = (at: Date, language: Language, timeZone?: string) =>
  at.toLocaleTimeString(language === 'es' ? 'es-PE' : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone && { timeZone }),
  });

/** A verdict as the guard, the cashier or the bus door sees it: the word (allowed, served or not), the name, then what the reader adds. */
export function Verdict({
  allow,
  reason,
  word,
  name,
  data,
  children,
}: {
  allow: boolean;
  reason?: string;
  word: string;
  name?: string | null;
  data?: Record<`data-${string}`, string | number | boolean>;
  children: ReactNode;
}) {
  return (
    <output
      className={`verdict ${allow ? 'allow' : 'deny'}`}
      data-testid="verdict"
      data-allow={allow}
      data-reason={reason}
      {...data}
    >
      <strong className="word">{word}</strong>
      {name && <span className="name">{name}</span>}
      {children}
    </output>
  );
}

/** A dining reader's verdict: served or not, who, why, the meals used, where and when. */
export function MealVerdict({
  meal,
  t,
  language,
  room,
}: {
  meal: MealShown;
  t: Translate;
  language: Language;
  room?: ReaderRoom;
}) {
  return (
    <Verdict
      allow={meal.allow}
      reason={meal.reason}
      word={t(meal.allow ? 'gateApp.dining.served' : 'gateApp.dining.notServed')}
      name={meal.name}
      data={{ 'data-offline': meal.offline ?? false, 'data-at': meal.at.getTime() }}
    >
      {meal.company && <span className="where">{meal.company}</span>}
      <span className="reason">{meal.message ?? t(meal.messageKey, meal.params)}</span>
      {meal.allow && meal.used && (
        <span className="reason">
          {t('gateApp.dining.used', { used: meal.used.used, max: meal.used.max })}
        </span>
      )}
      <span className="where">
        {[meal.room, meal.service?.Descripcion].filter(Boolean).join(' · ')} ·{' '}
        {timeOf(meal.at, language, room?.zonaHoraria)}
        {meal.offline && ` · ${t('gateApp.dining.decidedOffline')}`}
      </span>
    </Verdict>
  );
}

/** A gate's verdict: allowed or denied, who, why, the direction, the door and the time. */
export function GateVerdict({
  shown,
  t,
  language,
  list,
}: {
  shown: Shown;
  t: Translate;
  language: Language;
  list?: AllowList;
}) {
  return (
    <Verdict
      allow={shown.allow}
      reason={shown.reason}
      word={t(shown.allow ? 'gateApp.allowed' : 'gateApp.denied')}
      name={shown.name}
    >
      <span className="reason">{t(shown.messageKey, shown.params)}</span>
      {shown.lenientExit && <span className="reason">{t('gateApp.lenientExit')}</span>}
      <span className="where">
        {t(shown.direction === 'E' ? 'gateApp.entry' : 'gateApp.exit')}
        {shown.door && ` · ${shown.door}`} · {timeOf(shown.at, language, list?.zonaHoraria)}
      </span>
    </Verdict>
  );
}

/** The other language's button: its name starts with what it shows (EN or ES), so a voice command of what one sees reaches it. */
export function LanguageButton({
  t,
  language,
  onSwitch,
}: {
  t: Translate;
  language: Language;
  onSwitch: () => void;
}) {
  const other = language === 'es' ? 'EN' : 'ES';
  return (
    <button
      type="button"
      className="lang"
      onClick={onSwitch}
      aria-label={`${other} · ${t('gateApp.otherLanguage')}`}
    >
      {other}
    </button>
  );
}
