// Not a client module: the root layout (a server component) inlines the boot script.

export const THEME_KEY = "cyclium.theme";
export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type TThemeChoice = (typeof THEME_CHOICES)[number];

/**
 * Runs in <head> before the body paints (layout.tsx, with the CSP nonce): the stored choice, or
 * the system's preference, becomes `data-theme` on <html> so a dark page never flashes white.
 * Kept as a string because it must not wait for React.
 */
export const THEME_BOOT_SCRIPT = `(function(){try{var c=localStorage.getItem("${THEME_KEY}");var d=c==="dark"||(c!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.dataset.theme=d?"dark":"light";}catch(e){}})();`;
