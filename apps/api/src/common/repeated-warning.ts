/**
 * A warning about a state that lasts (a budget whose entries lack an exchange rate) is true on every request until
 * someone acts, so it is said once per distinct state, then again only when the state changes or `interval`
 * has passed, with how many times it was seen meanwhile. Bounded: the oldest subjects are forgotten first.
 */
export class RepeatedWarning {
  private readonly said = new Map<string, { state: string; at: number; unsaid: number }>();

  constructor(
    private readonly intervalMs = 60 * 60 * 1000,
    private readonly subjects = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether to log now for `subject` in `state`; when true, `repeats` is how many times the same state was seen
   * and not logged since it last was.
   */
  shouldSay(subject: string, state: string): { say: false } | { say: true; repeats: number } {
    const last = this.said.get(subject);
    const now = this.now();
    if (last && last.state === state && now - last.at < this.intervalMs) {
      last.unsaid++;
      return { say: false };
    }
    const repeats = last && last.state === state ? last.unsaid : 0;
    this.said.delete(subject); // re-inserted last: the map's order is least recently said first
    this.said.set(subject, { state, at: now, unsaid: 0 });
    if (this.said.size > this.subjects) this.said.delete(this.said.keys().next().value!);
    return { say: true, repeats };
  }
}
