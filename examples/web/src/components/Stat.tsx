import { formatCount, formatExact } from '../format';

interface StatProps {
  readonly label: string;
  readonly value: number | null | undefined;
  /** For tests: `data-testid` of the figure. */
  readonly testId: string;
}

/** One headline figure: compact for reading ("23.8B"), exact on hover. */
export function Stat({ label, value, testId }: StatProps) {
  return (
    <div className="stat">
      <span className="stat-value" data-testid={testId} title={formatExact(value)}>
        {formatCount(value)}
      </span>
      <span className="stat-label">{label}</span>
    </div>
  );
}
