// What the single-page apps under test/browsers/apps import besides code, as their bundlers
// (Vite, Next.js) resolve it: a Vue single-file component, a stylesheet for its side effect.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
declare module '*.css';
