// Names for the schemas of the service's OpenAPI document (`npm run gen:api`
// writes schema.d.ts from openapi.json): aliases only, never a shape by hand.
import type { components } from './schema';

type S = components['schemas'];

export type Meeting = S['Meeting'];
export type MeetingList = S['MeetingList'];
export type Note = S['Note'];
export type ActionItem = S['ActionItem'];
export type Marker = S['Marker'];
export type Segment = S['Segment'];
export type Change = S['Change'];
export type History = S['History'];
export type Transcript = S['Transcript'];
export type SearchResult = S['SearchResult'];
export type SearchResults = S['SearchResults'];
export type MeetingSearchResults = S['MeetingSearchResults'];
export type MeetingMatches = S['MeetingMatches'];
export type Health = S['Health'];
export type MeaningIndex = S['MeaningIndex'];
export type TranscriptionDevice = S['TranscriptionDevice'];
export type ProcessConfinement = S['ProcessConfinement'];
export type SearchMode = S['SearchMode'];
export type AskRequest = S['AskRequest'];
export type AskAnswer = S['AskAnswer'];
export type Citation = S['Citation'];
export type RecordingState = S['RecordingState'];
export type StopReason = S['StopReason'];
export type EndingReason = S['EndingReason'];
export type Prompt = S['Prompt'];
export type Ledger = S['Ledger'];
export type LedgerEntry = S['LedgerEntry'];
export type PolicyReport = S['PolicyReport'];
export type ModelList = S['ModelList'];
export type ModelSpeeds = S['ModelSpeeds'];
export type RecommendedModel = S['RecommendedModel'];
export type DevicesLevels = S['DevicesLevels'];
export type ModelEntry = S['ModelEntry'];
export type NotesModelList = S['NotesModelList'];
export type NotesModelEntry = S['NotesModelEntry'];
export type Pairings = S['Pairings'];
export type Pairing = S['Pairing'];
export type PairingCode = S['PairingCode'];
export type PlanReply = S['PlanReply'];
export type LicenseInfo = S['LicenseInfo'];
export type LicenseRequest = S['LicenseRequest'];
export type ErrorBody = S['ErrorBody'];
export type PendingPrompts = S['PendingPrompts'];
export type SessionList = S['SessionList'];
export type SessionInfo = S['SessionInfo'];
export type NoteKind = S['NoteKind'];
export type TemplateList = S['TemplateList'];
export type AudioInfo = S['AudioInfo'];
export type AiKeyList = S['AiKeyList'];

/** One event of the stream: `{type, data, at}`, narrowed on `type`. */
export type AppEvent = S['Event'] & { at?: number };
export type EventType = AppEvent['type'];
export type EventOf<K extends EventType> = Extract<AppEvent, { type: K }>;

export type Speaker = S['Speaker'];
export type SpeakerList = S['SpeakerList'];
export type Voice = S['Voice'];
export type VoiceList = S['VoiceList'];
