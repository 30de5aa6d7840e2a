/** The service's stopwatch mark beside its name, as the site's pages show it. */
export function BrandMark() {
  return (
    <svg class="hero-logo" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      <circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" stroke-width="2" />
      <path
        d="M12 13V9M10 2h4M12 2v3"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
        stroke-linecap="round"
      />
    </svg>
  );
}
