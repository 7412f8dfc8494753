// The remote-state store (docs/areas.md, `state`): a kind of remote state is one StateDefinition;
// each profile has one PollScheduler holding one RemoteStore per kind.
export type { ListContext, Listing, StateChange, StateDefinition } from './definition';
export { RemoteStore, type ChangeListener, type ListenerPhase } from './remoteStore';
export { DEFAULT_POLL_OPTIONS, POLL_FLOOR_MS, PollScheduler, SYSTEM_CLOCK, type PollOptions, type SchedulerClock } from './pollScheduler';
