import { useState } from 'react';
import { initials } from '../format';

interface AvatarProps {
  readonly name: string;
  readonly imageUrl: string | null | undefined;
  readonly size: number;
}

/** The artist's portrait, or their initials on a colour of their own when the image does not load. */
export function Avatar({ name, imageUrl, size }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size, fontSize: size * 0.38 };
  if (imageUrl && !failed) {
    return (
      <img className="avatar" src={imageUrl} alt="" style={style} onError={() => setFailed(true)} />
    );
  }
  return (
    <span
      className="avatar avatar-initials"
      style={{ ...style, background: colourFor(name) }}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  );
}

function colourFor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 55% 38%)`;
}
