// ChronicDuration as GitLab's duration validator uses it (`start_in`, `timeout`, `expire_in`): "30 minutes",
// "1h 30m", "1 day 2 hours", "3600" (seconds), on calendar time (lib/duration.ts). Seconds, or null.
import { CALENDAR, parseChronicDuration } from '../../lib/duration.ts';

export const parseDuration = (text: string): number | null => parseChronicDuration(text, CALENDAR);
