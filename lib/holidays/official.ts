/**
 * Official calendars on file: where each region's 2026/2027 lists were checked, and the
 * State Council's break arrangements for mainland China (not derivable from any rule).
 */
import type { Region } from "./mod.ts";
import { CHECKED } from "./corrections.ts";

/** Where a region's list was verified. */
export interface SourceNote {
  /** The authority's own page. */
  official: string;
  /** The copy actually read when it differs from `official` (a repost or news report). */
  seenAt?: string;
  checked: string;
  /** What the 2026 and 2027 lists rest on. */
  note: string;
}

/** Sources behind the lists pinned in lib/holidays/holidays_test.ts. */
export const SOURCES: Readonly<Record<Region, SourceNote>> = {
  US: {
    official: "https://www.opm.gov/policy-data-oversight/pay-leave/federal-holidays/",
    checked: CHECKED,
    seenAt: "https://www.mohave.gov/common-links/observed-holidays",
    note: "5 U.S.C. 6103 holidays with OPM's Friday/Monday in-lieu rule (E.O. 11582); the " +
      "OPM 2026/2027 tabs were not among the stored copies, so 2026 was cross-checked " +
      "against published schedules that follow it and 2027 rests on the statute",
  },
  UK: {
    official: "https://www.gov.uk/bank-holidays.json",
    seenAt: "https://en.econostrum.info/uk/new-holidays-just-announced-december-28",
    checked: CHECKED,
    note: "England and Wales division; 2026 and 2027 substitute days as published",
  },
  JP: {
    official: "https://www8.cao.go.jp/chosei/shukujitsu/gaiyou.html",
    seenAt: "https://news.livedoor.com/article/detail/30496293/",
    checked: CHECKED,
    note: "Cabinet Office lists for 2026 (5/6 substitute, 9/22 citizens' holiday) and 2027 " +
      "(equinoxes fixed by the 2026-02-02 暦要項; 3/22 substitute)",
  },
  AU: {
    official:
      "https://fairwork.gov.au/how-we-will-help/templates-and-guides/fact-sheets/minimum-workplace-entitlements/public-holidays",
    seenAt: "https://www.australianunions.org.au/factsheet/public-holidays",
    checked: CHECKED,
    note: "the seven holidays on the same date in every state (Fair Work Act s115 less the " +
      "King's Birthday, whose date varies); Monday/Tuesday stand-ins only where every state gives them",
  },
  CN: {
    official: "https://www.gov.cn/",
    seenAt: "https://politics.gmw.cn/2025-11/04/content_38391083.htm",
    checked: CHECKED,
    note: "2026: 国务院办公厅关于2026年部分节假日安排的通知 (2025-11-04). 2027: no notice " +
      "on file, so days off are computed from the 2024 放假办法 (statutory days, weekend " +
      "make-up, adjoining weekends) and flagged provisional",
  },
  TW: {
    official: "https://www.dgpa.gov.tw/",
    seenAt: "https://gsps.chc.edu.tw/index.php/posts/1041",
    checked: CHECKED,
    note: "2026: DGPA 115年政府行政機關辦公日曆表 (120 days off). 2027: the 116年 calendar was " +
      "not found, so it is computed from the 紀念日及節日實施條例 (2025-05-28) and the DGPA " +
      "substitution rule (Saturday → previous workday, Sunday → next), flagged provisional",
  },
  GLOBAL: {
    official: "(editorial list)",
    checked: CHECKED,
    note: "widely observed international days; fixed dates plus Easter and Lunar New Year",
  },
};

/** One break of a State Council notice. */
export interface CnBreak {
  /** First and last day off, both included. */
  from: string;
  to: string;
  /** Weekend days made working days for this break (调休上班). */
  workdays: readonly string[];
}

/** An annual 国务院办公厅 notice, keyed by our CN slugs. */
export interface CnNotice {
  source: string;
  checked: string;
  breaks: Readonly<Record<string, CnBreak>>;
}

/** State Council notices on file, by year. */
export const CN_NOTICES: Readonly<Record<number, CnNotice>> = {
  2026: {
    source: "https://politics.gmw.cn/2025-11/04/content_38391083.htm",
    checked: CHECKED,
    breaks: {
      "new-years-day": { from: "2026-01-01", to: "2026-01-03", workdays: ["2026-01-04"] },
      "spring-festival": {
        from: "2026-02-15",
        to: "2026-02-23",
        workdays: ["2026-02-14", "2026-02-28"],
      },
      "qingming-festival": { from: "2026-04-04", to: "2026-04-06", workdays: [] },
      "labor-day": { from: "2026-05-01", to: "2026-05-05", workdays: ["2026-05-09"] },
      "dragon-boat-festival": { from: "2026-06-19", to: "2026-06-21", workdays: [] },
      "mid-autumn-festival": { from: "2026-09-25", to: "2026-09-27", workdays: [] },
      "national-day": {
        from: "2026-10-01",
        to: "2026-10-07",
        workdays: ["2026-09-20", "2026-10-10"],
      },
    },
  },
};

/** Years whose computed TW list was checked day by day against the DGPA office calendar. */
export const TW_CALENDARS_ON_FILE: readonly number[] = [2026];
