export { HogQLTargets, type QueryTarget } from './hogqlTargets';
