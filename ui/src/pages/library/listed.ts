// What an import sees of the library's list (`LibraryState` is one): the
// meetings listed, and putting one in as the service has it now. A file of its
// own, so that the list and the import need not import each other.
import type { Meeting } from '../../api/types';

export interface ListedMeetings {
  readonly meetings: Meeting[];
  /** Puts one meeting as the service has it now into the list. */
  refreshOne(id: string): Promise<void>;
}
