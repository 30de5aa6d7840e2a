/** The server's clock as an island reads it: the offset implied by when the page arrived. */

/** Server − client clock offset implied by the moment this page's HTML arrived. */
export function pageOffset(serverAt: number): number {
  const nav = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  const received = nav?.responseStart ? performance.timeOrigin + nav.responseStart : Date.now();
  return serverAt - received;
}
