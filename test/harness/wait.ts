/** Waiting in tests against a real n8n: a pause, and polling until a probe yields a value. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `probe` every `intervalMs` until it returns something other than undefined or false. */
export async function until<T>(
	what: string,
	probe: () => Promise<T | undefined | false> | T | undefined | false,
	timeoutMs = 60_000,
	intervalMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(intervalMs);
	}
}
