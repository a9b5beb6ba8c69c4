// The inspector's styles, adopted by its shadow root as a constructed stylesheet: no style
// attribute and no <style> element, so it runs under `style-src 'self'` (CSP governs neither
// constructed sheets nor CSSOM writes such as `element.style.setProperty`). Nothing here reaches
// the page, nothing of the page's styles reaches in (`all: initial` on the host).
const CSS = `
:host { all: initial; position: fixed; top: 0; left: 0; width: 0; height: 0; z-index: 2147483647; font: 12px/1.35 system-ui, sans-serif; color: #111; }
.outline { position: fixed; box-sizing: border-box; border: 2px dashed #b45309; border-radius: 4px; pointer-events: none; }
.outline[data-state="counted"] { border-style: solid; border-color: #15803d; }
.outline[data-state="invalid"], .outline[data-state="refused"] { border-color: #b91c1c; }
.outline[data-state="viewing"] { border-color: #1d4ed8; }
.label { position: absolute; top: 0; left: 0; max-width: 28em; padding: 3px 6px; background: rgba(255,255,255,.94); border: 1px solid #999; border-radius: 0 0 4px 0; pointer-events: none; }
.label strong { display: block; }
.panel { position: fixed; right: 12px; bottom: 12px; width: 380px; max-height: 60vh; overflow: auto; background: #fff; border: 1px solid #888; border-radius: 6px; box-shadow: 0 4px 16px rgba(0,0,0,.25); padding: 8px 10px; pointer-events: auto; }
.panel[hidden], .reopen[hidden] { display: none; }
.panel header { display: flex; gap: 6px; align-items: center; }
.panel h2 { font-size: 13px; margin: 0 auto 0 0; }
.panel dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 8px; margin: 6px 0; }
.panel dt { color: #555; }
.panel dd { margin: 0; overflow-wrap: anywhere; }
.panel table { width: 100%; border-collapse: collapse; }
.panel th, .panel td { text-align: left; padding: 2px 4px; border-top: 1px solid #ddd; vertical-align: top; }
.panel code { font: 11px ui-monospace, monospace; }
.reopen { position: fixed; right: 12px; bottom: 12px; pointer-events: auto; }
button { font: inherit; padding: 2px 8px; cursor: pointer; }
button:focus-visible { outline: 2px solid #1d4ed8; outline-offset: 1px; }
td[data-state="delivered"] { color: #15803d; }
td[data-state="refused"], td[data-state="dropped"] { color: #b91c1c; }
`;

/** Styles `root`: a constructed sheet where the engine has them (every engine we test does). */
export function adoptStyles(root: ShadowRoot): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  root.adoptedStyleSheets = [sheet];
}
