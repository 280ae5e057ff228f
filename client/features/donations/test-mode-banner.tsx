/** Said on every page the built-in test provider drives (DESIGN.md "Contract details for money"). */
export function TestModeBanner({ children }: { children: string }) {
  return (
    <p className="test-mode-banner" role="note">
      <strong>Test mode — no real money moves.</strong> {children}
    </p>
  );
}
