// The components of shadow.html (issue 52), written as a Lit user writes them; each placement's
// experience is its cid. What each one must count is in test/browsers/shadow.ts.
import { LitElement, css, html } from 'lit';
import { keyed } from 'lit/directives/keyed.js';

const contextOf = (cid) =>
  JSON.stringify({ cid, experience: cid, svc_locale_id: '0', svc_variation_id: '1', audience_name: 'All', audience_id: '5A', type: 'Web Personalization' });

// Every host and every placement a 170×80 box; a control fills its placement.
const box = css`
  :host {
    display: block;
    width: 170px;
    height: 80px;
  }
  div,
  button,
  engage-button {
    display: block;
    box-sizing: border-box;
    width: 100%;
    height: 100%;
    margin: 0;
    background: #9cf;
  }
`;

// A web component's placement: the attribute on an element of its shadow root, as in the page's DOM.
class Hero extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  render() {
    return html`<div data-engage-context=${contextOf('at-load')}><button data-engage-b-id="cta">Shop</button></div>`;
  }
}

// A control in a component of its own, inside the placement: a click reaches the placement
// retargeted to <engage-button>; the b_id is read along the composed path.
class Button extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  render() {
    return html`<button data-engage-b-id="inner">Open</button>`;
  }
}
class Late extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  render() {
    return html`<div data-engage-context=${contextOf('defined-later')}><engage-button></engage-button></div>`;
  }
}
// Two shadow roots deep: document → <engage-outer> → <engage-inner> → the placement.
class Inner extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  render() {
    return html`<div data-engage-context=${contextOf('nested')}>two roots deep</div>`;
  }
}
class Outer extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  render() {
    return html`<engage-inner></engage-inner>`;
  }
}
// Each render a new node for the same placement (keyed), as a list re-keyed by a framework does.
class Rerender extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  static properties = { version: { type: Number } };
  constructor() {
    super();
    this.version = 0;
  }
  /** @override */
  render() {
    return keyed(this.version, html`<div data-engage-context=${contextOf('rerendered')}>render ${this.version}</div>`);
  }
}
// Taken out 300 ms after it rendered, before its second is up.
class Removed extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  static properties = { gone: { type: Boolean } };
  constructor() {
    super();
    this.gone = false;
  }
  /** @override */
  firstUpdated() {
    setTimeout(() => {
      window.removedButton = this.renderRoot.querySelector('button') ?? undefined;
      this.gone = true;
    }, 300);
  }
  /** @override */
  render() {
    return this.gone ? html`` : html`<div data-engage-context=${contextOf('removed')}><button data-engage-b-id="gone">x</button></div>`;
  }
}
// In view but transparent, and one whose context is not JSON: the inspector says why neither counts.
class Faded extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  render() {
    return html`<div style="opacity: 0" data-engage-context=${contextOf('faded')}>faded</div>`;
  }
}
class Invalid extends LitElement {
  /** @override */
  static styles = box;
  /** @override */
  render() {
    return html`<div data-engage-context="{not json">invalid</div>`;
  }
}
// A closed root: nothing outside sees into it, so the component declares its placement itself.
class Closed extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'closed' });
    root.innerHTML = `<style>:host,div{display:block;width:170px;height:80px;background:#9cf}</style><div data-engage-context='${contextOf('closed')}'>closed</div>`;
    window.Engage.observe(/** @type {Element} */ (root.querySelector('div')));
  }
}

customElements.define('engage-hero', Hero);
await customElements.whenDefined('engage-hero');
await /** @type {Hero} */ (document.getElementById('hero')).updateComplete;
// The script tag starts after <engage-hero> rendered into its shadow root.
const tag = Object.assign(document.createElement('script'), { src: '/dist/engage.iife.js' });
Object.assign(tag.dataset, { endpoint: '/engage', customerId: 'shadow-user', flushInterval: '300' });
await new Promise((resolve) => document.head.append(Object.assign(tag, { onload: resolve })));
window.marks.tag = performance.now();
// Defined after the tag started: upgraded in place.
customElements.define('engage-button', Button);
customElements.define('engage-late', Late);
customElements.define('engage-inner', Inner);
customElements.define('engage-outer', Outer);
customElements.define('engage-rerender', Rerender);
customElements.define('engage-removed', Removed);
customElements.define('engage-closed', Closed);
customElements.define('engage-faded', Faded);
customElements.define('engage-invalid', Invalid);
// A declarative shadow root parsed after the tag started (setHTMLUnsafe, as a streamed or
// server-rendered fragment would be): no attachShadow call; found when its host is inserted. The
// host is a child of the element set: a declarative root never attaches to that element itself.
const fragment = document.createElement('div');
fragment.setHTMLUnsafe(
  `<div><template shadowrootmode="open"><style>:host,div{display:block;width:170px;height:80px;background:#9cf}</style><div data-engage-context='${contextOf('declarative-later')}'>declarative, later</div></template></div>`,
);
document.querySelector('.grid')?.append(fragment);
window.rerender = () => /** @type {Rerender} */ (document.getElementById('rerender')).version++;
window.shadowReady = true;
