import { useEffect, useState } from 'react';
import { island } from 'ssg';

/** The build's year in the HTML, corrected in the browser should the site outlive a New Year. */
function CurrentYear({ year }: { year: number }) {
  const [current, setCurrent] = useState(year);
  useEffect(() => setCurrent(new Date().getFullYear()), []);
  return <>{current}</>;
}

export default island('current-year', CurrentYear, { hydrate: 'idle' });
