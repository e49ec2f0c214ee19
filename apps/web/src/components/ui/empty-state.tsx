import type { ReactNode } from "react";
import { Icon, type TIconName } from "@/components/icons/icon";

export function EmptyState({
  icon,
  title,
  children,
  testId,
}: {
  icon: TIconName;
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="empty-state" data-testid={testId}>
      <div className="empty-state-icon" aria-hidden="true">
        <Icon name={icon} size={20} />
      </div>
      <div className="empty-state-title">{title}</div>
      <div className="empty-state-body">{children}</div>
    </div>
  );
}
