// Playback times (spec part 1 section 2, "Music player"): mm:ss, or hh:mm:ss from 3600 s.

export function formatPlaybackTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${two(hours)}:${two(minutes)}:${two(rest)}` : `${two(minutes)}:${two(rest)}`;
}

/** The same time as an ISO 8601 duration, for `<time dateTime>`. */
export function isoDuration(seconds: number): string {
  return `PT${Math.max(0, Math.round(seconds))}S`;
}
