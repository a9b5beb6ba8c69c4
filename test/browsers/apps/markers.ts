// The files build-apps.ts leaves in the apps' directory when it is done (ready.ts waits for one):
// apart from both, so a suite can wait without loading the build's tools (Vite, its plugins).
export const BUILT = '.built';
export const FAILED = '.failed';
