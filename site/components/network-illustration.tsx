// The hero's picture: our validator cluster (the rack in the middle, with a redundant twin) linked
// to the three chains it validates and to the peers of each network. Decorative: the text beside
// it says the same, so it is hidden from assistive technology. Colours come from the custom
// properties of the style sheet, so it follows the light and dark schemes.

const chains = [
  { x: 92, y: 92 },
  { x: 392, y: 118 },
  { x: 356, y: 334 },
];

const peers = [
  { x: 36, y: 196, chain: 0 },
  { x: 168, y: 32, chain: 0 },
  { x: 40, y: 40, chain: 0 },
  { x: 300, y: 40, chain: 1 },
  { x: 452, y: 52, chain: 1 },
  { x: 456, y: 216, chain: 1 },
  { x: 448, y: 372, chain: 2 },
  { x: 248, y: 384, chain: 2 },
  { x: 420, y: 292, chain: 2 },
  { x: 96, y: 340, chain: 0 },
];

const hub = { x: 236, y: 210 };

function Rack({ x, y }: { x: number; y: number }) {
  return (
    <g transform={`translate(${x} ${y})`}>
      <rect className="art-rack" width="84" height="92" rx="12" />
      {[18, 40, 62].map((row) => (
        <g key={row}>
          <rect className="art-slot" x="12" y={row} width="60" height="14" rx="4" />
          <circle className="art-led" cx="62" cy={row + 7} r="3" />
        </g>
      ))}
    </g>
  );
}

export function NetworkIllustration() {
  return (
    <svg className="hero-art" viewBox="0 0 480 420" width="480" height="420" aria-hidden="true" focusable="false">
      <g className="art-mesh">
        {peers.map((peer) => (
          <line
            key={`${peer.x}-${peer.y}`}
            x1={peer.x}
            y1={peer.y}
            x2={chains[peer.chain]!.x}
            y2={chains[peer.chain]!.y}
          />
        ))}
        <line x1={chains[0]!.x} y1={chains[0]!.y} x2={chains[1]!.x} y2={chains[1]!.y} />
        <line x1={chains[1]!.x} y1={chains[1]!.y} x2={chains[2]!.x} y2={chains[2]!.y} />
      </g>
      <g className="art-links">
        {chains.map((chain) => (
          <line key={`${chain.x}-${chain.y}`} x1={hub.x} y1={hub.y} x2={chain.x} y2={chain.y} />
        ))}
      </g>
      <circle className="art-ring" cx={hub.x} cy={hub.y} r="96" />
      {peers.map((peer) => (
        <circle key={`${peer.x}-${peer.y}`} className="art-peer" cx={peer.x} cy={peer.y} r="7" />
      ))}
      {chains.map((chain) => (
        <g key={`${chain.x}-${chain.y}`}>
          <circle className="art-chain" cx={chain.x} cy={chain.y} r="26" />
          <path className="art-block" d={`M${chain.x - 9} ${chain.y - 5}l9-5 9 5v10l-9 5-9-5z`} />
        </g>
      ))}
      <Rack x={hub.x - 96} y={hub.y - 46} />
      <Rack x={hub.x + 12} y={hub.y - 46} />
    </svg>
  );
}
