import { useState } from 'react';
import { island } from 'ssg';

/** An island: rendered to HTML at build time, and made interactive in the browser once visible. */
function Counter({ start }: { start: number }) {
  const [count, setCount] = useState(start);
  return (
    <p>
      <button type="button" onClick={() => setCount(count + 1)}>
        Clicked {count} times
      </button>
    </p>
  );
}

export default island('counter', Counter, { hydrate: 'visible' });
