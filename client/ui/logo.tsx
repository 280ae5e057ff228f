export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#4c2a85" />
      <path d="M32 50s-16-9.6-16-21a9 9 0 0 1 16-5.7A9 9 0 0 1 48 29c0 11.4-16 21-16 21z" fill="#ff7a59" />
      <path d="M28 22v16.5a4.5 4.5 0 1 1-3-4.2V24l14-3v13.5a4.5 4.5 0 1 1-3-4.2V24.6z" fill="#fff" />
    </svg>
  );
}
