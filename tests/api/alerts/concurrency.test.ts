// Alert changes that race (run on PostgreSQL too): two resolved alerts with one fingerprint re-opened at once meet
// at the one-open-alert-per-fingerprint index, and the loser gets GitLab's refusal, never a 500; two createAlertIssue
// calls at once link one issue.
import { describe, expect, it } from 'vitest';
import { alertProject, createAlert, gql } from './support.ts';

const STATUS = `mutation($path: ID!, $iid: String!) { updateAlertStatus(input: { projectPath: $path, iid: $iid, status: TRIGGERED }) { errors alert { status } } }`;
const ISSUE = `mutation($path: ID!, $iid: String!) { createAlertIssue(input: { projectPath: $path, iid: $iid }) { errors alert { issueIid } issue { iid } } }`;

describe('concurrent alert changes', () => {
  it('re-opening two alerts with one fingerprint at once: one opens, the other is refused', async () => {
    const fx = await alertProject();
    const fingerprint = 'a'.repeat(40);
    const one = await createAlert(fx.project.id, { fingerprint, status: 'resolved' });
    const two = await createAlert(fx.project.id, { fingerprint, status: 'resolved' });
    const results = await Promise.all([one, two].map((a) => gql(STATUS, fx.developer.token, { path: fx.path, iid: String(a.iid) })));
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
    }
    const payloads = results.map((r) => r.body.data.updateAlertStatus);
    expect(payloads.filter((p) => p.errors.length === 0).map((p) => p.alert.status)).toEqual(['TRIGGERED']);
    const refused = payloads.find((p) => p.errors.length > 0)!;
    expect(refused.alert.status).toBe('RESOLVED');
    expect(refused.errors[0]).toMatch(/^An <a href="\/.+\/-\/alert_management\/\d+\/details">alert<\/a> with the same fingerprint is already open\./);
  });

  it('two createAlertIssue at once link one issue; the other answers "An issue already exists"', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id);
    const results = await Promise.all([1, 2].map(() => gql(ISSUE, fx.developer.token, { path: fx.path, iid: String(a.iid) })));
    const payloads = results.map((r) => r.body.data.createAlertIssue);
    const linked = payloads.filter((p) => p.errors.length === 0);
    expect(linked).toHaveLength(1);
    expect(payloads.filter((p) => p.errors.length > 0).map((p) => p.errors)).toEqual([['An issue already exists']]);
    const alert = await gql(
      `query($path: ID!, $iid: String) { project(fullPath: $path) { alertManagementAlert(iid: $iid) { issueIid notes { nodes { body } } } } }`,
      fx.developer.token,
      {
        path: fx.path,
        iid: String(a.iid),
      },
    );
    expect(alert.body.data.project.alertManagementAlert).toEqual({
      issueIid: linked[0].issue.iid,
      notes: { nodes: [{ body: `created issue #${linked[0].issue.iid} for this alert` }] },
    });
  });
});
