// The lines serve and node write on stderr of their background work (alerts, history), each
// stamped with its time: one JSON object with --json, else one line of text.

/**
 * A log of `field`'s messages on stderr: `{"time":…,"<field>":message}` with `json`, else
 * `TIME docklens: <prefix>message`.
 */
export function stderrLog(
  field: string,
  json: boolean | undefined,
  prefix = "",
): (message: string) => void {
  return (message) => {
    const time = new Date().toISOString();
    process.stderr.write(
      json
        ? `${JSON.stringify({ time, [field]: message })}\n`
        : `${time} docklens: ${prefix}${message}\n`,
    );
  };
}
