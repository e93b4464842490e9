import { type ReactNode, useState } from 'react';

interface ShowMoreProps<T> {
  readonly items: readonly T[];
  /** How many show before the reader asks for more. */
  readonly initial: number;
  /** What the items are, for the button: "chart entries". */
  readonly noun: string;
  readonly children: (visible: readonly T[]) => ReactNode;
}

/** Long lists (a big artist has a hundred milestones) start short, with a button for the rest. */
export function ShowMore<T>({ items, initial, noun, children }: ShowMoreProps<T>) {
  const [expanded, setExpanded] = useState(false);
  const visible = expanded ? items : items.slice(0, initial);
  return (
    <>
      {children(visible)}
      {items.length > initial && (
        <button type="button" className="show-more" onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show fewer' : `Show all ${items.length} ${noun}`}
        </button>
      )}
    </>
  );
}
