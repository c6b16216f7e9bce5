const MONTHS: Record<string, number> = {
  jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11,
};

/** RFC 822 zone names, plus a few that feeds use although the RFC does not list them. */
const ZONES: Record<string, number> = {
  z: 0, ut: 0, utc: 0, gmt: 0, wet: 0, bst: 60, cet: 60, met: 60, cest: 120, mest: 120, eet: 120, eest: 180,
  msk: 180, ist: 330, jst: 540, kst: 540, aest: 600, aedt: 660, nzst: 720, nzdt: 780,
  est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420,
  akst: -540, akdt: -480, hst: -600,
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T\s](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const DAY_MONTH_YEAR =
  /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([A-Za-z]{3,9})\.?,?[\s-]+(\d{4}|\d{2})(?:[\s,T]+(\d{1,3}):(\d{1,2})(?::(\d{1,3}))?(?:\.\d+)?\s*([ap]\.?m\.?)?)?\s*(.*)$/i;
const MONTH_DAY_YEAR = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(.*)$/;

/** Minutes east of UTC for a zone token; unknown or missing zones count as UTC. */
function zoneOffset(token: string): number {
  const zone = token.trim().split(/[\s(]/)[0].toLowerCase();
  const numeric = /^(?:gmt|utc)?([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);
    return numeric[1] === '-' ? -minutes : minutes;
  }
  return ZONES[zone] ?? 0;
}

function build(year: number, month: number, day: number, hour: number, minute: number, second: number, offset: number): Date | null {
  if (year < 1900 || year > 2200 || month < 0 || month > 11 || day < 1 || day > 31 || hour > 24 || minute > 59) return null;
  // A day that does not exist in the month (31 Apr) is junk, not a roll-over.
  if (new Date(Date.UTC(year, month, day)).getUTCDate() !== day) return null;
  const ms = Date.UTC(year, month, day, hour, minute, second <= 59 ? second : 0) - offset * 60_000;
  return Number.isFinite(ms) ? new Date(ms) : null;
}

function fromDayMonthYear(text: string): Date | null {
  const m = DAY_MONTH_YEAR.exec(text);
  if (!m) return null;
  const month = MONTHS[m[2].slice(0, 3).toLowerCase()];
  if (month === undefined) return null;
  let year = Number(m[3]);
  if (m[3].length === 2) year += year < 50 ? 2000 : 1900;
  let hour = Number(m[4] ?? 0);
  const meridiem = m[7]?.toLowerCase().replace(/\./g, '');
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  return build(year, month, Number(m[1]), hour, Number(m[5] ?? 0), Number(m[6] ?? 0), zoneOffset(m[8] ?? ''));
}

/**
 * Publication dates as feeds write them: RFC 822 with its common
 * malformations (no weekday, `Thurs,`, full month names, wrong weekdays,
 * `CST`, two-digit years, hour 24, `012:31:50`), RFC 3339 / ISO 8601, and
 * `July 8, 2012`. The weekday is ignored, as many feeds get it wrong; an
 * unknown zone counts as UTC; impossible seconds count as 0.
 *
 * @returns the instant, or null when the text is missing or unparseable (never an Invalid Date).
 */
export function parseFeedDate(raw: string | null | undefined): Date | null {
  const text = raw?.trim().replace(/\s+/g, ' ');
  if (!text || text.length > 100) return null;
  const iso = ISO.exec(text);
  if (iso) {
    return build(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]), Number(iso[4] ?? 0), Number(iso[5] ?? 0),
      Number(iso[6] ?? 0), zoneOffset(iso[7] ?? ''));
  }
  const withoutWeekday = text.replace(/^[A-Za-z]+\.?,\s*|^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s+(?=\d)/i, '');
  const us = MONTH_DAY_YEAR.exec(withoutWeekday);
  if (us) return fromDayMonthYear(`${us[2]} ${us[1]} ${us[3]}${us[4]}`);
  return fromDayMonthYear(withoutWeekday);
}
