/** One line of bench/results.json: a figure, its target, whether it is met, and the raw figures beside. */
export interface Result {
  name: string;
  value: number | string | null;
  unit: string;
  /** Human-readable target ("≥ 0.70", "≤ 1 s"), or "report" for reference figures. */
  target: string;
  /** null for reference figures without a target. */
  met: boolean | null;
  /** Why a target is missed, or what a figure means, when there is something to say. */
  note?: string;
  [raw: string]: unknown;
}

export interface Mode {
  quick: boolean;
  /** Where CPU profiles go when a target is missed. */
  profileDir: string;
  /** Overrides the precision section's N values (`--precision-sizes=10000`). */
  precisionSizes?: number[];
  /** Run the precision servers under --cpu-prof and summarise the completion burst (`--profile-precision`). */
  profilePrecision?: boolean;
}
