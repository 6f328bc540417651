import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The admin routes' client actions (a toast each) ride in their route's module: split
  // into chunks of their own, they only lengthened the route manifest every hydrated page loads.
  splitRouteModules: false,
} satisfies Config;
