import type { MailMessage } from './message';

/** Every e-mail the service sends, as plain text: short, with the one link that matters. */
export const mailTemplates = {
  verifyEmail: (to: string, link: string): MailMessage => ({
    to,
    subject: 'Verify your e-mail address for Oxbow',
    text: `Welcome to Oxbow.\n\nConfirm that this address is yours by opening this link within 24 hours:\n\n${link}\n\nIf you did not sign up, ignore this message.\n`,
  }),
  accountExists: (to: string, loginUrl: string): MailMessage => ({
    to,
    subject: 'Someone tried to sign up to Oxbow with your address',
    text: `Somebody, perhaps you, tried to create an Oxbow account with this address, which already has one.\n\nSign in at ${loginUrl}, or reset your password from there if you forgot it. If it was not you, no action is needed.\n`,
  }),
  resetPassword: (to: string, link: string): MailMessage => ({
    to,
    subject: 'Reset your Oxbow password',
    text: `Choose a new password by opening this link within one hour:\n\n${link}\n\nIf you did not ask for this, ignore this message: your password stays as it is.\n`,
  }),
  confirmNewEmail: (to: string, link: string): MailMessage => ({
    to,
    subject: 'Confirm your new e-mail address for Oxbow',
    text: `Confirm that your Oxbow account should use this address from now on by opening this link within 24 hours:\n\n${link}\n\nUntil then your account keeps its current address.\n`,
  }),
  emailChangeRequested: (to: string, newEmail: string): MailMessage => ({
    to,
    subject: 'Your Oxbow e-mail address is being changed',
    text: `A change of your account's address to ${newEmail} was requested. It takes effect once the new address is confirmed.\n\nIf this was not you, change your password now.\n`,
  }),
  addedToWorkspace: (to: string, workspaceName: string, inviterEmail: string, appUrl: string): MailMessage => ({
    to,
    subject: `You have been added to the Oxbow workspace ${workspaceName}`,
    text: `${inviterEmail} added you to the Oxbow workspace "${workspaceName}". It is in your workspace list at ${appUrl}.\n`,
  }),
  workspaceInvitation: (to: string, workspaceName: string, inviterEmail: string, signupUrl: string): MailMessage => ({
    to,
    subject: `You have been invited to the Oxbow workspace ${workspaceName}`,
    // The link stands on a line of its own: punctuation after it would end up in the address a mail client links.
    text: `${inviterEmail} invited you to the Oxbow workspace "${workspaceName}".\n\nCreate your account with this address here:\n\n${signupUrl}\n\nOnce the address is verified you are a member.\n`,
  }),
};
