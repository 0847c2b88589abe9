import type { Project, ProjectWritable, ProjectWritableField } from '../api';

/** A yes/no project setting offered in the quick "Toggle Features" pick. */
export interface ProjectSwitch {
  readonly field: ProjectWritableField;
  readonly label: string;
  readonly detail: string;
  /** autocapture_opt_out is "off" when true: shown as "Autocapture" checked when the field is false. */
  readonly inverted?: boolean;
}

export const PROJECT_SWITCHES: readonly ProjectSwitch[] = [
  { field: 'autocapture_opt_out', label: 'Autocapture', detail: 'Capture clicks, changes and form submits automatically', inverted: true },
  { field: 'autocapture_exceptions_opt_in', label: 'Exception autocapture', detail: 'Capture JavaScript exceptions' },
  { field: 'session_recording_opt_in', label: 'Session recordings', detail: 'Record user sessions' },
  { field: 'capture_console_log_opt_in', label: 'Console logs in recordings', detail: 'Keep browser console logs with recordings' },
  { field: 'capture_performance_opt_in', label: 'Network and performance capture', detail: 'Capture network timing and web vitals' },
  { field: 'heatmaps_opt_in', label: 'Heatmaps', detail: 'Collect heatmap data' },
  { field: 'surveys_opt_in', label: 'Surveys', detail: 'Show surveys to users' },
  { field: 'anonymize_ips', label: 'Anonymize IP addresses', detail: 'Discard client IPs of incoming events' },
  { field: 'inject_web_apps', label: 'Site apps', detail: 'Allow site apps to be injected into your site' },
  { field: 'access_control', label: 'Private project', detail: 'Only invited members can access this project' },
];

/** Whether the switch shows as on for this project (null and missing count as off). */
export function switchIsOn(project: Project, item: ProjectSwitch): boolean {
  const value = (project as Record<string, unknown>)[item.field] === true;
  return item.inverted ? !value : value;
}

/** The body that turns exactly the chosen switches on and the others off: only fields whose value changes. */
export function switchChanges(project: Project, chosenOn: ReadonlySet<ProjectWritableField>): ProjectWritable {
  const changes: Record<string, boolean> = {};
  for (const item of PROJECT_SWITCHES) {
    const wantOn = chosenOn.has(item.field);
    if (wantOn !== switchIsOn(project, item)) {
      changes[item.field] = item.inverted ? !wantOn : wantOn;
    }
  }
  return changes as ProjectWritable;
}
