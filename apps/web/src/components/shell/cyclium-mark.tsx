/** The product mark: a cycle (recoverable work coming round again) around a live dot. */
export function CycliumMark() {
  return (
    <svg className="cyclium-mark" viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--brand)" />
      <path
        d="M22.5 11.2A8 8 0 1 0 24 16"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
      <path
        d="M24.8 7.6v4.6h-4.6"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="16" cy="16" r="2.6" fill="#fff" />
    </svg>
  );
}
