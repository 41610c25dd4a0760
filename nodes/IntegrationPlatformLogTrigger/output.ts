/**
 * Filters and output items of the log trigger. Pure: no n8n imports (unit-tested on its own).
 */
import type { LogEntry } from './logCursor';

/**
 * Severities of Google Cloud Logging, which the API's log shape resembles. The API enumerates
 * none (docs/api-notes.md, "Enumerations"), so filters also take custom values and compare without case.
 */
export const COMMON_SEVERITIES = [
	'DEFAULT',
	'DEBUG',
	'INFO',
	'NOTICE',
	'WARNING',
	'ERROR',
	'CRITICAL',
	'ALERT',
	'EMERGENCY',
];

export interface LogFilters {
	/** Upper-cased severities to keep; empty keeps every severity. */
	severities: string[];
	/** Lower-cased text that message.msg or message.error must contain; empty keeps all. */
	text: string;
}

/** Severities from the multi-select and the free "custom" text (comma or space separated). */
export function buildFilters(selected: unknown, custom: unknown, text: unknown): LogFilters {
	const list = [
		...(Array.isArray(selected) ? selected : []),
		...(typeof custom === 'string' ? custom.split(/[\s,;]+/) : Array.isArray(custom) ? custom : []),
	]
		.map((s) => String(s).trim().toUpperCase())
		.filter(Boolean);
	return {
		severities: [...new Set(list)],
		text: typeof text === 'string' ? text.trim().toLowerCase() : '',
	};
}

function messageField(message: unknown, name: 'msg' | 'error'): string {
	if (typeof message !== 'object' || message === null)
		return name === 'msg' ? String(message ?? '') : '';
	const value = (message as Record<string, unknown>)[name];
	return typeof value === 'string'
		? value
		: value === undefined || value === null
			? ''
			: JSON.stringify(value);
}

export function matchesFilters(entry: LogEntry, filters: LogFilters): boolean {
	if (filters.severities.length) {
		const severity = String(entry.raw.severity ?? '')
			.trim()
			.toUpperCase();
		if (!filters.severities.includes(severity)) return false;
	}
	if (filters.text) {
		const { message } = entry.raw;
		const haystacks = [messageField(message, 'msg'), messageField(message, 'error')];
		if (!haystacks.some((h) => h.toLowerCase().includes(filters.text))) return false;
	}
	return true;
}

/** What each emitted item holds: the entry as returned plus where it came from and its key. */
export function toItem(entry: LogEntry, projectId: string): Record<string, unknown> {
	return {
		...entry.raw,
		timestamp: entry.raw.timestamp ?? null,
		severity: entry.raw.severity ?? null,
		message: entry.raw.message ?? null,
		timestampIso: entry.iso ?? null,
		operationId: entry.operationId,
		projectId,
		entryKey: entry.entryKey,
	};
}

/** Operation IDs from text (comma, semicolon, space or line separated) or a list (expressions). */
export function parseOperationIds(value: unknown): string[] {
	const parts = Array.isArray(value)
		? value.flatMap((v) =>
				typeof v === 'string' || typeof v === 'number' ? String(v).split(/[\s,;]+/) : [],
			)
		: typeof value === 'string' || typeof value === 'number'
			? String(value).split(/[\s,;]+/)
			: [];
	return [...new Set(parts.map((p) => p.trim()).filter(Boolean))];
}
