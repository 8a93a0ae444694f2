// epics tables (issue 16; built by its helper).
export {};
