// A view's controls kept in its URL, both ways: a control changed replaces the query (a keystroke
// is no history entry), and a link to the view with another query (the menu's, "logs of these")
// sets the controls again. Every control is a string; '' is left out of the URL.
import { reactive, watch } from "vue";
import { useRoute, useRouter } from "vue-router";
import { queryString } from "./format.ts";

/** Two queries alike, whatever the order of their keys. */
function sameQuery(a: object, b: object): boolean {
  const canonical = (query: object) => JSON.stringify(Object.entries(query).map(String).sort());
  return canonical(a) === canonical(b);
}

/**
 * Controls with the keys and defaults of `defaults`, read from the route's query and written back
 * to it while the route is `name`'s.
 */
export function useQueryState<T extends Record<string, string>>(name: string, defaults: T): T {
  const route = useRoute();
  const router = useRouter();
  const state = reactive({ ...defaults }) as T;
  const toQuery = () => {
    const query: Record<string, string> = {};
    for (const [key, value] of Object.entries(state))
      if (value !== defaults[key]) query[key] = value;
    return query;
  };
  const fromQuery = () => {
    for (const key of Object.keys(defaults) as Array<keyof T & string>) {
      const value = route.query[key];
      (state as Record<string, string>)[key] =
        value === undefined ? defaults[key]! : queryString(value);
    }
  };
  fromQuery();
  watch(state, () => {
    const query = toQuery();
    if (route.name === name && !sameQuery(query, route.query)) void router.replace({ query });
  });
  watch(
    () => route.query,
    (query) => {
      if (route.name === name && !sameQuery(query, toQuery())) fromQuery();
    },
  );
  return state;
}
