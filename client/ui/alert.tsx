import type { ReactNode } from 'react';

type AlertProps = { tone?: 'error' | 'success' | 'info' | 'warning'; title?: string; children: ReactNode };

export function Alert({ tone = 'info', title, children }: AlertProps) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title && <p className="alert-title">{title}</p>}
      <div>{children}</div>
    </div>
  );
}
