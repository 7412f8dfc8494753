// The state area's interface (docs/areas.md): the remote-state store every other area reads.
export { RemoteState, type ProfileChangeListener, type ProfileWatch, type TaskStore } from './remoteState';
