// Chart colours are the stylesheet's variables, so the charts follow the light and dark schemes.
export const axisTick = { fill: 'var(--muted)', fontSize: 12 };
export const gridStroke = 'var(--border)';
export const tooltipProps = {
  contentStyle: { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' },
  cursor: { fill: 'var(--info-bg)' },
};
export const legendProps = { wrapperStyle: { color: 'var(--text)' } };
