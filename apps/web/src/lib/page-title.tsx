import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

type Setter = (title: string | undefined) => void;

const TitleContext = createContext<Setter>(() => undefined);

/** The tab title as a page shows it: "Title — Atelier", or just "Atelier". */
export function formatTitle(title: string): string {
  return title === 'Atelier' ? 'Atelier' : `${title} — Atelier`;
}

/**
 * Writes `document.title`: the page's own title when it names one with `usePageTitle` (a product's
 * title), else `fallback` (the page table's). One writer, so a page opened directly keeps its title
 * instead of losing it to the layout's effect, which runs after the page's.
 */
export function PageTitleProvider({ fallback, children }: { fallback: string; children: ReactNode }) {
  const [own, setOwn] = useState<string | undefined>(undefined);
  useEffect(() => {
    document.title = formatTitle(own ?? fallback);
  }, [own, fallback]);
  return <TitleContext.Provider value={setOwn}>{children}</TitleContext.Provider>;
}

/** The page's own tab title while it is shown (undefined: the page table's title). */
export function usePageTitle(title: string | undefined) {
  const set = useContext(TitleContext);
  useEffect(() => {
    set(title);
    return () => set(undefined);
  }, [title, set]);
}
