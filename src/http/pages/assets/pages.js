// The pages' behaviour, as one small module (the Content-Security-Policy runs no inline script).
// Everything works without it except copying and charts; it only adds to server-rendered pages.

// Copy buttons: <button data-copy="ELEMENT_ID">.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const text = 'value' in source ? source.value : source.textContent;
    try {
      await navigator.clipboard.writeText(text.trim());
      button.textContent = 'Copied';
    } catch {
      // No clipboard permission (plain http, old browser): select it for a manual copy.
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    }
  });
}

// Confirmation before a form that cannot be undone: <form data-confirm="Revoke this key?">.
for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!confirm(form.dataset.confirm)) event.preventDefault();
  });
}

// Charts: <div data-chart="DATA_ID"> with <script type="application/json" id="DATA_ID">
// {"x": [epoch seconds], "series": [{"label": "...", "values": [...], "color": "#..."}], "unit": "hour"}
// Refusals (429) are drawn red by their series' own colour; none of these is red, so they never clash.
const COLOURS = ['#2358a6', '#2e8b57', '#8e44ad', '#b9770e'];
function drawCharts() {
  if (!window.uPlot) return;
  for (const el of document.querySelectorAll('[data-chart]')) {
    const source = document.getElementById(el.dataset.chart);
    if (!source) continue;
    const data = JSON.parse(source.textContent);
    el.replaceChildren();
    const width = Math.max(280, el.clientWidth);
    new window.uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: true } },
        // Room for "150,000" beside the y axis.
        axes: [{}, { size: 80 }],
        series: [
          {},
          ...data.series.map((s, i) => ({
            label: s.label,
            stroke: s.color ?? COLOURS[i % COLOURS.length],
            width: 2,
            fill: i === 0 ? 'rgba(35, 88, 166, 0.08)' : undefined,
          })),
        ],
      },
      [data.x, ...data.series.map((s) => s.values)],
      el,
    );
  }
}
// uPlot's script is deferred like this module; either may finish first.
if (document.readyState === 'loading') addEventListener('DOMContentLoaded', drawCharts);
else drawCharts();
let resized = 0;
addEventListener('resize', () => {
  clearTimeout(resized);
  resized = setTimeout(drawCharts, 200);
});
