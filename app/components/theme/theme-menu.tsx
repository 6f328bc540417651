import { Monitor, Moon, Sun } from "lucide-react";
import { DropdownMenu as MenuPrimitive } from "radix-ui";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { choosePageTheme, usePageTheme } from "./page-theme";
import { isTheme, type Theme } from "./theme";

const OPTIONS: ReadonlyArray<{ theme: Theme; label: string; Icon: typeof Sun }> = [
  { theme: "light", label: "Light", Icon: Sun },
  { theme: "dark", label: "Dark", Icon: Moon },
  { theme: "system", label: "System", Icon: Monitor },
];

/**
 * The admin header's theme choice (the same cookie as the public site's toggle). The
 * admin runs with JavaScript: the choice applies at once.
 */
export function ThemeMenu() {
  const theme = usePageTheme();
  const Current = OPTIONS.find((option) => option.theme === theme)?.Icon ?? Monitor;

  function choose(value: string) {
    if (isTheme(value)) choosePageTheme(value);
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" data-testid="theme-menu">
          <Current aria-hidden="true" className="size-5" />
          <span className="sr-only">Colour theme: {theme}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-40">
        <DropdownMenuLabel className="px-3 py-1.5 text-xs font-medium text-fg-muted">Colour theme</DropdownMenuLabel>
        <MenuPrimitive.RadioGroup value={theme} onValueChange={choose}>
          {OPTIONS.map(({ theme: option, label, Icon }) => (
            <MenuPrimitive.RadioItem
              key={option}
              value={option}
              data-testid={`theme-${option}`}
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-fg outline-none select-none data-[highlighted]:bg-surface data-[state=checked]:text-accent"
            >
              <Icon aria-hidden="true" className="size-4" />
              {label}
            </MenuPrimitive.RadioItem>
          ))}
        </MenuPrimitive.RadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
