// For tools that read the page's TypeScript without Vue's language service (ESLint's type-aware
// rules): a component module is a component. vue-tsc reads the components themselves.
declare module "*.vue" {
  import type { DefineComponent } from "vue";
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
