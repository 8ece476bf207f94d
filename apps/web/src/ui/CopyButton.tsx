import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button, type ButtonSize, type ButtonVariant } from "./Button";

const COPIED_FOR_MS = 2_000;

/**
 * Copies `text` to the clipboard and says 'Copied!' for 2 s. With `label={null}` it is an
 * icon until then, named by `ariaLabel`.
 */
export function CopyButton({
  text,
  label = "Copy",
  ariaLabel,
  size = "xs",
  variant = "ghost",
}: {
  text: string;
  label?: string | null;
  ariaLabel?: string;
  size?: ButtonSize;
  variant?: ButtonVariant;
}) {
  const [isCopied, setIsCopied] = useState(false);
  useEffect(() => {
    if (!isCopied) return;
    const timer = setTimeout(() => setIsCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [isCopied]);
  const iconSize = size === "xs" ? 12 : 14;
  return (
    <Button
      variant={variant}
      size={size}
      icon={isCopied ? <Check size={iconSize} /> : <Copy size={iconSize} />}
      aria-label={ariaLabel}
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => {});
        setIsCopied(true);
      }}
    >
      {isCopied ? "Copied!" : label}
    </Button>
  );
}
